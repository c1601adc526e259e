-- The language a game is shown in (a locale such as pt_BR); NULL for games that follow the server's setting.

ALTER TABLE games ADD COLUMN language TEXT;
