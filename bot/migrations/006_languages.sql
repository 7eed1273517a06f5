-- 006: the language a member chose with /language (their private answers and DMs) and
-- the language a server chose for its public table messages. A missing row means: follow
-- Discord (the member's client locale; the server's preferred locale).

CREATE TABLE member_languages (
    user_id     INTEGER NOT NULL PRIMARY KEY,
    locale      TEXT    NOT NULL CHECK (locale IN ('en', 'de', 'fr', 'hi', 'fa')),
    updated_at  TEXT    NOT NULL
);

CREATE TABLE guild_languages (
    guild_id    INTEGER NOT NULL PRIMARY KEY,
    locale      TEXT    NOT NULL CHECK (locale IN ('en', 'de', 'fr', 'hi', 'fa')),
    updated_at  TEXT    NOT NULL,
    updated_by  INTEGER
);
