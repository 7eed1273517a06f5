-- 011 (PostgreSQL): as ../011_pontoon_old_snapshots.sql (state_json is text holding JSON).
UPDATE game_tables
SET state_json = jsonb_set(
    state_json::jsonb,
    '{engine,rules,max_seats}',
    to_jsonb(CASE WHEN coalesce((state_json::jsonb #>> '{engine,rules,packs}')::int, 2) = 1
                  THEN 10 ELSE 20 END)
)::text
WHERE game = 'pontoon' AND status = 'open'
  AND jsonb_typeof(state_json::jsonb #> '{engine,rules}') = 'object'
  AND (state_json::jsonb #>> '{engine,rules,max_seats}') IS NULL;

UPDATE game_tables
SET state_json = jsonb_set(
    jsonb_set(
        state_json::jsonb,
        '{engine,auction}',
        coalesce(state_json::jsonb #> '{meta,auction,bids}', '{}'::jsonb)
    ),
    '{meta,auction}',
    (state_json::jsonb #> '{meta,auction}') - 'seller' - 'bids'
)::text
WHERE game = 'pontoon' AND status = 'open'
  AND (state_json::jsonb #>> '{meta,auction,seller}') IS NOT NULL
  AND (state_json::jsonb #>> '{engine,auction}') IS NULL
  AND (state_json::jsonb #>> '{engine,banker}') = (state_json::jsonb #>> '{meta,auction,seller}');

UPDATE game_tables
SET state_json = jsonb_set(state_json::jsonb, '{meta,auction}', 'null'::jsonb)::text
WHERE game = 'pontoon' AND status = 'open'
  AND (state_json::jsonb #>> '{meta,auction,seller}') IS NOT NULL;

UPDATE game_tables
SET state_json = jsonb_set(
    state_json::jsonb,
    '{meta,round_log}',
    (
        SELECT coalesce(
            jsonb_agg(
                CASE WHEN q.says IS NULL THEN q.value
                     ELSE jsonb_set(q.value, '{event,says}', q.says) END
                ORDER BY q.ord
            ),
            '[]'::jsonb
        )
        FROM (
            SELECT r.ord, r.value,
                CASE
                WHEN jsonb_typeof(r.said) = 'object' OR coalesce(r.d, '') = '' THEN NULL
                WHEN r.kind = 'kitty' THEN CASE r.d
                    WHEN 'added' THEN jsonb_build_object('key', 'engine.kitty.added')
                    WHEN 'returned' THEN jsonb_build_object('key', 'engine.kitty.returned')
                    WHEN 'empty (P-SHOOT-8)' THEN jsonb_build_object('key', 'engine.kitty.empty')
                    END
                WHEN r.kind = 'bank_passes' THEN CASE
                    WHEN r.d LIKE 'pontoon; from %' THEN jsonb_build_object(
                        'key', 'engine.bank_passes.from',
                        'params', jsonb_build_object('old', substr(r.d, 15)))
                    WHEN r.d = 'pontoon (P-NEXT-2)'
                        THEN jsonb_build_object('key', 'engine.bank_passes.pontoon')
                    END
                WHEN r.kind <> 'hand_result' OR r.outcome IS NULL
                     OR r.outcome NOT IN ('win', 'lose') THEN NULL
                WHEN r.why IN ('banker bust', 'bust', 'pontoon beats banker''s pontoon',
                               'banker''s pontoon')
                    THEN jsonb_build_object('key', 'engine.result.' || r.outcome, 'params',
                        jsonb_build_object('why', jsonb_build_object('key', CASE r.why
                            WHEN 'banker bust' THEN 'engine.why.banker_bust'
                            WHEN 'bust' THEN 'engine.why.bust'
                            WHEN 'pontoon beats banker''s pontoon' THEN 'engine.why.pontoon_beats'
                            ELSE 'engine.why.banker_pontoon' END)))
                WHEN r.player IS NULL OR r.banker IS NULL THEN NULL
                ELSE jsonb_build_object('key', 'engine.result.' || r.outcome, 'params',
                    jsonb_build_object('why', jsonb_build_object(
                        'key', r.verb,
                        'params', jsonb_build_object('label', r.player, 'blabel', r.banker))))
                END AS says
            FROM (
                SELECT o.*,
                    CASE
                    WHEN o.label ~ '^[0-9]+$' THEN to_jsonb(o.label::bigint)
                    WHEN o.label = 'royal pontoon' THEN jsonb_build_object('key', 'engine.label.royal')
                    WHEN o.label = 'pontoon' THEN jsonb_build_object('key', 'engine.label.pontoon')
                    WHEN o.label = 'five card trick' THEN jsonb_build_object('key', 'engine.label.five')
                    END AS player,
                    CASE
                    WHEN o.against = 'five card trick'
                        THEN jsonb_build_object('key', 'engine.label.banker_five')
                    WHEN o.against ~ '^[0-9]+$' THEN jsonb_build_object(
                        'key', 'engine.label.banker_total',
                        'params', jsonb_build_object('total', o.against::bigint))
                    END AS banker
                FROM (
                    SELECT n.*,
                        CASE WHEN n.bpos > 0 THEN substr(n.why, 1, n.bpos - 1)
                             WHEN n.lpos > 0 THEN substr(n.why, 1, n.lpos - 1) END AS label,
                        CASE WHEN n.bpos > 0 THEN substr(n.why, n.bpos + 16)
                             WHEN n.lpos > 0 THEN substr(n.why, n.lpos + 19) END AS against,
                        CASE WHEN n.bpos > 0 THEN 'engine.why.beats'
                             -- the banker's five card trick collects double (P-PAY-FIVE)
                             WHEN n.lpos > 0 AND substr(n.why, n.lpos + 19) = 'five card trick'
                                 THEN 'engine.why.loses_double_to'
                             ELSE 'engine.why.loses_to' END AS verb
                    FROM (
                        SELECT m.*,
                            position(' beats banker''s ' IN coalesce(m.why, '')) AS bpos,
                            position(' loses to banker''s ' IN coalesce(m.why, '')) AS lpos
                        FROM (
                            SELECT l.*,
                                CASE WHEN position(': ' IN l.d) > 0
                                     THEN substr(l.d, 1, position(': ' IN l.d) - 1) END AS outcome,
                                CASE WHEN position(': ' IN l.d) > 0
                                     THEN substr(l.d, position(': ' IN l.d) + 2) END AS why
                            FROM (
                                SELECT e.ord, e.value,
                                    e.value #>> '{event,kind}' AS kind,
                                    e.value #>> '{event,detail}' AS d,
                                    e.value #> '{event,says}' AS said
                                FROM jsonb_array_elements(game_tables.state_json::jsonb #> '{meta,round_log}')
                                     WITH ORDINALITY AS e(value, ord)
                            ) AS l
                        ) AS m
                    ) AS n
                ) AS o
            ) AS r
        ) AS q
    )
)::text
WHERE game = 'pontoon' AND status = 'open'
  AND jsonb_typeof(state_json::jsonb #> '{meta,round_log}') = 'array'
  AND EXISTS (
      SELECT 1 FROM jsonb_array_elements(state_json::jsonb #> '{meta,round_log}') AS e(value)
      WHERE jsonb_typeof(e.value #> '{event,says}') IS DISTINCT FROM 'object'
        AND coalesce(e.value #>> '{event,detail}', '') <> ''
  );
