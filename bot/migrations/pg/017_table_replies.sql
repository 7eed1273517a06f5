-- 016 (PostgreSQL): the freshest interaction token of a table the bot may only answer
-- interactions at, as ../017_table_replies.sql.

ALTER TABLE game_tables ADD COLUMN reply_token TEXT;
ALTER TABLE game_tables ADD COLUMN reply_expires DOUBLE PRECISION;
ALTER TABLE game_tables ADD COLUMN reply_locale TEXT;
