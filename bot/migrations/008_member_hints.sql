-- 008: one-time hints a member has been shown (e.g. 'help': the first time they join a
-- table they are pointed to /help). A row means: shown, do not show again.

CREATE TABLE member_hints (
    user_id   INTEGER NOT NULL,
    hint      TEXT    NOT NULL,
    shown_at  TEXT    NOT NULL,
    PRIMARY KEY (user_id, hint)
);
