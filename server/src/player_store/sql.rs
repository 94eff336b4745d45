//! The SQL both backends share: parameters as `$1, $2, …`, each first used in increasing order
//! (SQLite numbers `$N` names by first appearance, PostgreSQL by N). What only one dialect
//! needs stays in its backend.

pub const UPSERT_RATING: &str =
    "INSERT INTO ratings (account_id, kind, rating, games, wins, draws, losses) \
     VALUES ($1, $2, $3, 1, $4, $5, $6) \
     ON CONFLICT (account_id, kind) DO UPDATE SET rating = excluded.rating, \
     games = ratings.games + 1, wins = ratings.wins + excluded.wins, \
     draws = ratings.draws + excluded.draws, losses = ratings.losses + excluded.losses";
pub const INSERT_GAME: &str =
    "INSERT INTO rated_games (game_key, kind, white_id, black_id, result, pdn, \
     white_before, white_after, black_before, black_after, finished_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id";
pub const RATING: &str =
    "SELECT rating, games, wins, draws, losses FROM ratings WHERE account_id = $1 AND kind = $2";
pub const RATINGS: &str = "SELECT kind, rating, games, wins, draws, losses FROM ratings \
     WHERE account_id = $1 ORDER BY kind";
pub const RANKING: &str = "SELECT r.account_id, a.display_name, r.rating, r.games, \
     RANK() OVER (ORDER BY r.rating DESC) AS place \
     FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE r.kind = $1 \
     ORDER BY r.rating DESC, r.games DESC, r.account_id LIMIT $2";
pub const PLACE: &str = "SELECT r.account_id, a.display_name, r.rating, r.games, \
     (SELECT COUNT(*) FROM ratings o WHERE o.kind = r.kind AND o.rating > r.rating) + 1 \
     FROM ratings r JOIN accounts a ON a.id = r.account_id \
     WHERE r.account_id = $1 AND r.kind = $2";
pub const HISTORY: &str = "SELECT id, finished_ms, \
     CASE WHEN white_id = $1 THEN white_after ELSE black_after END \
     FROM rated_games WHERE (white_id = $1 OR black_id = $1) AND kind = $2 \
     ORDER BY id DESC LIMIT $3";
pub const LAST_GAMES: &str =
    "SELECT g.id, g.kind, g.white_id, w.display_name, g.black_id, b.display_name, \
     g.result, g.white_before, g.white_after, g.black_before, g.black_after, g.finished_ms \
     FROM rated_games g JOIN accounts w ON w.id = g.white_id JOIN accounts b ON b.id = g.black_id \
     WHERE g.white_id = $1 OR g.black_id = $1 ORDER BY g.id DESC LIMIT $2";
pub const SESSION: &str = "SELECT a.id, a.issuer, a.subject, a.display_name, s.expires_ms \
     FROM sessions s JOIN accounts a ON a.id = s.account_id \
     WHERE s.token_hash = $1 AND s.revoked_ms IS NULL AND s.expires_ms > $2";
pub const REVOKE: &str = "UPDATE sessions SET revoked_ms = $1 \
     WHERE token_hash = $2 AND revoked_ms IS NULL AND expires_ms > $1";
pub const PUT_PENDING: &str = "INSERT INTO pending_sign_ins \
     (state_hash, pkce_verifier, nonce, return_to, display_name, expires_ms) \
     VALUES ($1, $2, $3, $4, $5, $6)";
pub const TAKE_PENDING: &str = "DELETE FROM pending_sign_ins WHERE state_hash = $1 \
     RETURNING pkce_verifier, nonce, return_to, display_name, expires_ms";
pub const SWEEP_PENDING: &str = "DELETE FROM pending_sign_ins WHERE expires_ms <= $1";
pub const ACCOUNT: &str = "SELECT id, issuer, subject, display_name FROM accounts WHERE id = $1";

pub const INSERT_ACCOUNT: &str =
    "INSERT INTO accounts (issuer, subject, display_name, created_ms) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING";
pub const ACCOUNT_OF_SUBJECT: &str =
    "SELECT id, issuer, subject, display_name FROM accounts WHERE issuer = $1 AND subject = $2";
pub const ACCOUNT_EXISTS: &str = "SELECT 1 FROM accounts WHERE id = $1";
pub const RENAME: &str = "UPDATE accounts SET display_name = $1 WHERE id = $2";
pub const SWEEP_SESSIONS: &str = "DELETE FROM sessions WHERE expires_ms <= $1";
pub const INSERT_SESSION: &str =
    "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)";
pub const SWEEP_NONCES: &str = "DELETE FROM used_nonces WHERE expires_ms <= $1";
pub const INSERT_NONCE: &str = "INSERT INTO used_nonces (nonce_hash, expires_ms) VALUES ($1, $2) \
     ON CONFLICT (nonce_hash) DO NOTHING";
pub const GAME_RECORDED: &str = "SELECT 1 FROM rated_games WHERE game_key = $1";
pub const GAME_PDN: &str = "SELECT pdn FROM rated_games WHERE id = $1";
