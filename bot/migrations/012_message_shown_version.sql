-- 012: which version of its table each table message was confirmed to show.
--
-- The bot writes it (in batches, a second or so after the message was edited or a click
-- was answered with the table) and clears it when the table moves to a new message. After
-- a restart only the open tables whose message was not confirmed to show their stored
-- version are read back from Discord: a clean restart reads none.

ALTER TABLE game_tables ADD COLUMN shown_version INTEGER;
