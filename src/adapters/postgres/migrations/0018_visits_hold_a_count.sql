-- ADR 0130: a row of the visit log holds the visits of one fold bucket (link, second and
-- every dimension alike), `clicks` of them, instead of one row per click: the rows of a
-- bucket were identical. A visit is still one counted click: reads expand a row into its
-- visits. Rows written before hold one visit each. Added to the partitioned table, so to
-- every partition, the DEFAULT one included.
ALTER TABLE visits ADD COLUMN clicks integer NOT NULL DEFAULT 1 CHECK (clicks > 0);
