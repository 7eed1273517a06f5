-- 011: open Pontoon tables saved by older versions of the bot, upgraded once to the shape
-- the bot saves today, so that it reads only that shape (no legacy readers at load).
--
-- 1. A table saved before tables had a seat limit gets the bot's limit as its rules'
--    max_seats (P-TABLE-1): what one table message shows and the packs deal, 10 with one
--    pack, else 20 (bot/pontoon.py seat_limit).
UPDATE game_tables
SET state_json = json_set(
    state_json,
    '$.engine.rules.max_seats',
    CASE WHEN coalesce(json_extract(state_json, '$.engine.rules.packs'), 2) = 1 THEN 10 ELSE 20 END
)
WHERE game = 'pontoon' AND status = 'open' AND json_valid(state_json)
  AND json_type(state_json, '$.engine.rules') = 'object'
  AND json_extract(state_json, '$.engine.rules.max_seats') IS NULL;

-- 2. A bank auction saved before the engine held it (the bot's meta kept the seller and
--    the bids): the bids move into the engine while the seller still holds the bank; the
--    meta keeps only when the auction ends. An auction whose seller no longer holds the
--    bank had ended: it goes.
UPDATE game_tables
SET state_json = json_remove(
    json_set(
        state_json,
        '$.engine.auction', json(coalesce(json_extract(state_json, '$.meta.auction.bids'), '{}'))
    ),
    '$.meta.auction.seller',
    '$.meta.auction.bids'
)
WHERE game = 'pontoon' AND status = 'open' AND json_valid(state_json)
  AND json_extract(state_json, '$.meta.auction.seller') IS NOT NULL
  AND json_extract(state_json, '$.engine.auction') IS NULL
  AND CAST(json_extract(state_json, '$.engine.banker') AS TEXT)
      = CAST(json_extract(state_json, '$.meta.auction.seller') AS TEXT);

UPDATE game_tables
SET state_json = json_set(state_json, '$.meta.auction', json('null'))
WHERE game = 'pontoon' AND status = 'open' AND json_valid(state_json)
  AND json_extract(state_json, '$.meta.auction.seller') IS NOT NULL;

-- 3. The current round's log, as the table message shows it: events saved before events
--    carried their words kept only the engine's English detail. The few details the
--    engine wrote for the kitty, the bank passing and a hand's result get the words the
--    engine gives them now (so the same lines show after the upgrade); any other detail
--    stays without words, as it was read before.
UPDATE game_tables
SET state_json = json_set(
    state_json,
    '$.meta.round_log',
    (
        SELECT json_group_array(
            json(CASE WHEN w.says IS NULL THEN w.value
                      ELSE json_set(w.value, '$.event.says', json(w.says)) END)
        )
        FROM (
            SELECT q.key, q.value,
                CASE
                WHEN q.said IS NOT NULL OR coalesce(q.d, '') = '' THEN NULL
                WHEN q.kind = 'kitty' THEN CASE q.d
                    WHEN 'added' THEN json_object('key', 'engine.kitty.added')
                    WHEN 'returned' THEN json_object('key', 'engine.kitty.returned')
                    WHEN 'empty (P-SHOOT-8)' THEN json_object('key', 'engine.kitty.empty')
                    END
                WHEN q.kind = 'bank_passes' THEN CASE
                    WHEN q.d LIKE 'pontoon; from %' THEN json_object(
                        'key', 'engine.bank_passes.from',
                        'params', json_object('old', substr(q.d, 15)))
                    WHEN q.d = 'pontoon (P-NEXT-2)' THEN json_object('key', 'engine.bank_passes.pontoon')
                    END
                WHEN q.kind != 'hand_result' OR q.outcome NOT IN ('win', 'lose') THEN NULL
                WHEN q.why IN ('banker bust', 'bust', 'pontoon beats banker''s pontoon', 'banker''s pontoon')
                    THEN json_object('key', 'engine.result.' || q.outcome, 'params', json_object(
                        'why', json_object('key', CASE q.why
                            WHEN 'banker bust' THEN 'engine.why.banker_bust'
                            WHEN 'bust' THEN 'engine.why.bust'
                            WHEN 'pontoon beats banker''s pontoon' THEN 'engine.why.pontoon_beats'
                            ELSE 'engine.why.banker_pontoon' END)))
                WHEN q.player IS NULL OR q.banker IS NULL THEN NULL
                ELSE json_object('key', 'engine.result.' || q.outcome, 'params', json_object(
                    'why', json_object(
                        'key', q.verb,
                        'params', json_object('label', json(q.player), 'blabel', json(q.banker)))))
                END AS says
            FROM (
                SELECT r.*,
                    CASE
                    WHEN r.label = '' THEN NULL
                    WHEN r.label NOT GLOB '*[^0-9]*' THEN CAST(CAST(r.label AS INTEGER) AS TEXT)
                    WHEN r.label = 'royal pontoon' THEN json_object('key', 'engine.label.royal')
                    WHEN r.label = 'pontoon' THEN json_object('key', 'engine.label.pontoon')
                    WHEN r.label = 'five card trick' THEN json_object('key', 'engine.label.five')
                    END AS player,
                    CASE
                    WHEN r.against = 'five card trick' THEN json_object('key', 'engine.label.banker_five')
                    WHEN r.against != '' AND r.against NOT GLOB '*[^0-9]*' THEN json_object(
                        'key', 'engine.label.banker_total',
                        'params', json_object('total', CAST(r.against AS INTEGER)))
                    END AS banker
                FROM (
                    SELECT o.*,
                        CASE WHEN o.bpos > 0 THEN substr(o.why, 1, o.bpos - 1)
                             WHEN o.lpos > 0 THEN substr(o.why, 1, o.lpos - 1) END AS label,
                        CASE WHEN o.bpos > 0 THEN substr(o.why, o.bpos + 16)
                             WHEN o.lpos > 0 THEN substr(o.why, o.lpos + 19) END AS against,
                        CASE WHEN o.bpos > 0 THEN 'engine.why.beats'
                             -- the banker's five card trick collects double (P-PAY-FIVE)
                             WHEN o.lpos > 0 AND substr(o.why, o.lpos + 19) = 'five card trick'
                                 THEN 'engine.why.loses_double_to'
                             ELSE 'engine.why.loses_to' END AS verb
                    FROM (
                        SELECT n.*,
                            instr(n.why, ' beats banker''s ') AS bpos,
                            instr(n.why, ' loses to banker''s ') AS lpos
                        FROM (
                            SELECT m.*,
                                CASE WHEN instr(m.d, ': ') > 0
                                     THEN substr(m.d, 1, instr(m.d, ': ') - 1) END AS outcome,
                                CASE WHEN instr(m.d, ': ') > 0
                                     THEN substr(m.d, instr(m.d, ': ') + 2) END AS why
                            FROM (
                                SELECT e.key AS key, e.value AS value,
                                    json_extract(e.value, '$.event.kind') AS kind,
                                    json_extract(e.value, '$.event.detail') AS d,
                                    json_extract(e.value, '$.event.says') AS said
                                FROM json_each(game_tables.state_json, '$.meta.round_log') AS e
                            ) AS m
                        ) AS n
                    ) AS o
                ) AS r
            ) AS q
            ORDER BY q.key
        ) AS w
    )
)
WHERE game = 'pontoon' AND status = 'open' AND json_valid(state_json)
  AND json_type(state_json, '$.meta.round_log') = 'array'
  AND EXISTS (
      SELECT 1 FROM json_each(game_tables.state_json, '$.meta.round_log') AS e
      WHERE json_extract(e.value, '$.event.says') IS NULL
        AND coalesce(json_extract(e.value, '$.event.detail'), '') != ''
  );
