-- The rules version each game is played under, and its seed kept losslessly as decimal text (seeds of new games
-- have 128 bits; INTEGER holds 64). Games dealt before this migration were played under rules version 1.

ALTER TABLE games ADD COLUMN rules INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN seed_text TEXT;
UPDATE games SET seed_text = CAST(seed AS TEXT) WHERE seed IS NOT NULL;
