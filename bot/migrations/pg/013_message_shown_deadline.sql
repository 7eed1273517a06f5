-- 013 (PostgreSQL): the countdown each table message was confirmed to show, as
-- ../013_message_shown_deadline.sql.

ALTER TABLE game_tables ADD COLUMN shown_deadline DOUBLE PRECISION;
