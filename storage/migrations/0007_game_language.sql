-- The language a game speaks in its thread and pictures, as a locale name ("en", "pt_BR"), chosen when it is
-- created. Games created before this migration have NULL: they speak English.

ALTER TABLE games ADD COLUMN language TEXT;
