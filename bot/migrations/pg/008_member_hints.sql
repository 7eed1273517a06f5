-- 008 (PostgreSQL): one-time hints a member has been shown, as ../008_member_hints.sql.

CREATE TABLE member_hints (
    user_id   BIGINT NOT NULL,
    hint      TEXT   NOT NULL,
    shown_at  TEXT   NOT NULL,
    PRIMARY KEY (user_id, hint)
);
