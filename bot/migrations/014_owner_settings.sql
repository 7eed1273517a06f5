-- 014: what server owners set with /casino settings, and its trail.
--
-- settings_log: one row per change of a server setting (guild_settings, 002): which
-- setting, the value in effect before (the default when the server had set none) and
-- after, who changed it and when. /casino log reads it, newest first. ``updated_by`` is
-- cleared when that member's data is erased (/privacy delete), like guild_settings'.
--
-- members.starting_due: 1 while a member's starting chips are held back because their
-- account or their membership of the server was younger than the server's age gate when
-- the bot first saw them; the chips are granted (and this set to 0) the first time they
-- are seen old enough.
--
-- round_results (010) gains an index on (account, ts): a server's limit of rounds per
-- period counts a member's rounds since a moment, which the index reads without walking
-- the member's whole history.

CREATE TABLE settings_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    old_value   INTEGER NOT NULL CHECK (typeof(old_value) = 'integer'),
    new_value   INTEGER NOT NULL CHECK (typeof(new_value) = 'integer'),
    updated_at  TEXT    NOT NULL,
    updated_by  INTEGER
);
CREATE INDEX settings_log_guild ON settings_log (guild_id, id);

ALTER TABLE members ADD COLUMN starting_due INTEGER NOT NULL DEFAULT 0;

CREATE INDEX round_results_account_ts ON round_results (account, ts);
