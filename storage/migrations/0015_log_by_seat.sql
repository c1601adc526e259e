-- How a game's action log names who acted (`actions.player`, and the packed `games.log`): 1 by the seat's number
-- ("0", "1", …: games dealt through the game contract, `MatchStore.start_match`), 0 by the seat's name (games dealt
-- by Kokeshi's own path, `Store.start_game`). Every game stored under another key so far was a contract game; every
-- Kokeshi game was its own path's. No move is rewritten: the contract path reads a log by name through `seats`.
ALTER TABLE games ADD COLUMN log_seats INTEGER NOT NULL DEFAULT 0;
UPDATE games SET log_seats = 1 WHERE game <> 'kokeshi';
