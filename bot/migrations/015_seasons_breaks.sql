-- 015: a server's seasons (/casino reset) with each closed season's final standings
-- (/leaderboard season:), and members' own breaks from play (/break).
--
-- A server without a seasons row is in its first season; each /casino reset closes the
-- current one: one seasons row (when, by whom, the starting chips every balance went
-- back to) and one season_standings row per member with their chips at its end. The
-- balances themselves move through the ledger (transfers to and from the house), never
-- by changing or deleting a ledger row.
--
-- member_breaks: one row per member and server, the break's end; a break that ended
-- stays until the member's next one replaces it. Nothing else names who is on a break.

CREATE TABLE seasons (
    guild_id        INTEGER NOT NULL,
    season          INTEGER NOT NULL CHECK (season >= 1),
    ended_at        TEXT    NOT NULL,
    reset_by        INTEGER,
    starting_chips  INTEGER NOT NULL CHECK (starting_chips >= 0),
    members         INTEGER NOT NULL CHECK (members >= 0),
    tables_closed   INTEGER NOT NULL CHECK (tables_closed >= 0),
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE season_standings (
    guild_id  INTEGER NOT NULL,
    season    INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    balance   INTEGER NOT NULL CHECK (typeof(balance) = 'integer' AND balance >= 0),
    PRIMARY KEY (guild_id, season, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, season)
);
CREATE INDEX season_standings_rank ON season_standings (guild_id, season, balance);

CREATE TABLE member_breaks (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX member_breaks_end ON member_breaks (guild_id, ends_at);

-- a giver's gifts of the day (/give's per-day cap) are found by a range of this index,
-- whatever the length of their history
CREATE INDEX transfers_src_ts ON transfers (src, ts);
