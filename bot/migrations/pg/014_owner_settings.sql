-- 014 (PostgreSQL): the trail of server settings, a member's held-back starting chips and
-- the index a limit of rounds per period reads, as ../014_owner_settings.sql.

CREATE TABLE settings_log (
    id          BIGSERIAL PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    key         TEXT   NOT NULL,
    old_value   BIGINT NOT NULL,
    new_value   BIGINT NOT NULL,
    updated_at  TEXT   NOT NULL,
    updated_by  BIGINT
);
CREATE INDEX settings_log_guild ON settings_log (guild_id, id);

ALTER TABLE members ADD COLUMN starting_due INTEGER NOT NULL DEFAULT 0;

CREATE INDEX round_results_account_ts ON round_results (account, ts);
