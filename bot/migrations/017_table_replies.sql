-- 016: how the bot reaches a table it may only answer interactions at.
--
-- Outside the servers that installed the bot (a group DM, a DM, a server where only a
-- member installed it) the bot may not post or edit a channel message of its own: a
-- table there is drawn through the interaction tokens its members' clicks give, each
-- usable for 15 minutes. Each open table keeps the freshest one (the longest-lived),
-- when it expires (epoch seconds) and the language its messages are written in, so a
-- table reloaded after a restart goes on at the next click, or closes with its stakes
-- returned when its token has expired. A closed table keeps none (cleared at close).

ALTER TABLE game_tables ADD COLUMN reply_token TEXT;
ALTER TABLE game_tables ADD COLUMN reply_expires REAL;
ALTER TABLE game_tables ADD COLUMN reply_locale TEXT;
