-- 002: per-server settings (starting chips, daily chips). A missing row means the
-- process-wide default from Settings.

CREATE TABLE guild_settings (
    guild_id    INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    value       INTEGER NOT NULL CHECK (typeof(value) = 'integer'),
    updated_at  TEXT    NOT NULL,
    updated_by  INTEGER,
    PRIMARY KEY (guild_id, key)
);
