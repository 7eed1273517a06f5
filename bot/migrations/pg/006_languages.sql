-- 006 (PostgreSQL): member and server languages, as ../006_languages.sql.

CREATE TABLE member_languages (
    user_id     BIGINT NOT NULL PRIMARY KEY,
    locale      TEXT   NOT NULL CHECK (locale IN ('en', 'de', 'fr', 'hi', 'fa')),
    updated_at  TEXT   NOT NULL
);

CREATE TABLE guild_languages (
    guild_id    BIGINT NOT NULL PRIMARY KEY,
    locale      TEXT   NOT NULL CHECK (locale IN ('en', 'de', 'fr', 'hi', 'fa')),
    updated_at  TEXT   NOT NULL,
    updated_by  BIGINT
);
