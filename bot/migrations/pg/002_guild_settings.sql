-- 002 (PostgreSQL): per-server settings, as ../002_guild_settings.sql.

CREATE TABLE guild_settings (
    guild_id    BIGINT NOT NULL,
    key         TEXT   NOT NULL,
    value       BIGINT NOT NULL,
    updated_at  TEXT   NOT NULL,
    updated_by  BIGINT,
    PRIMARY KEY (guild_id, key)
);
