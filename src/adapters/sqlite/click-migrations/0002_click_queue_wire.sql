-- Queue rows written by hop serve's aggregator thread hold the flushed tally as bytes (the
-- wire format of src/wire/click-tally-wire.ts), stored as they arrive from the event
-- loop; `tally` is then ''. Rows written before hold JSON in `tally`, and still fold.
ALTER TABLE click_queue ADD COLUMN wire BLOB;
