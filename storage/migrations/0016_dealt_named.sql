-- Whether a game's match was dealt with its seats' names (1: Kokeshi's own path, `Store.start_game`, whose engine
-- state holds the players' names; `GameModule.deal_named`) or for its number of seats (0: the contract's path,
-- `MatchStore.start_match`; `GameModule.deal`). Apart from how its log names the players (`log_seats`): a game of
-- the own path moved to a log by seat number (`MatchStore.to_seat_log`) is still the match dealt with their names.
ALTER TABLE games ADD COLUMN dealt_named INTEGER NOT NULL DEFAULT 0;
UPDATE games SET dealt_named = 1 WHERE log_seats = 0 AND (seed_text IS NOT NULL OR seed IS NOT NULL);
