-- 015 (PostgreSQL): seasons, their final standings and members' breaks, as
-- ../015_seasons_breaks.sql.

CREATE TABLE seasons (
    guild_id        BIGINT  NOT NULL,
    season          INTEGER NOT NULL CHECK (season >= 1),
    ended_at        TEXT    NOT NULL,
    reset_by        BIGINT,
    starting_chips  BIGINT  NOT NULL CHECK (starting_chips >= 0),
    members         INTEGER NOT NULL CHECK (members >= 0),
    tables_closed   INTEGER NOT NULL CHECK (tables_closed >= 0),
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE season_standings (
    guild_id  BIGINT  NOT NULL,
    season    INTEGER NOT NULL,
    user_id   BIGINT  NOT NULL,
    balance   BIGINT  NOT NULL CHECK (balance >= 0),
    PRIMARY KEY (guild_id, season, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, season)
);
CREATE INDEX season_standings_rank ON season_standings (guild_id, season, balance);

CREATE TABLE member_breaks (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    started_at  TEXT   NOT NULL,
    ends_at     TEXT   NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX member_breaks_end ON member_breaks (guild_id, ends_at);

-- a giver's gifts of the day (/give's per-day cap) are found by a range of this index,
-- whatever the length of their history
CREATE INDEX transfers_src_ts ON transfers (src, ts);
