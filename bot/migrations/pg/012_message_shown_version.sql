-- 012 (PostgreSQL): which version of its table each table message was confirmed to show,
-- as ../012_message_shown_version.sql.

ALTER TABLE game_tables ADD COLUMN shown_version BIGINT;
