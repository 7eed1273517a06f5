-- 013: the countdown each table message was confirmed to show, beside its version (012).
--
-- When the bot confirms that a table's message shows its stored version, it also writes
-- the moment that message counts down to (epoch seconds, as in Discord's <t:...:R>), or
-- NULL when it shows no countdown. After a restart a table whose message is confirmed
-- and whose countdown is still ahead resumes its clock to that very moment, so the
-- message is right as it is and is neither read nor edited; a countdown that ran out
-- while the bot was down gives a fresh one, and the message is drawn again. A new
-- message (which clears shown_version) leaves it meaningless until confirmed again.

ALTER TABLE game_tables ADD COLUMN shown_deadline REAL;
