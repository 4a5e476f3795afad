-- Suspended accounts (decision 028): an admin stops an account at once. While suspended_at is set,
-- no session or API key of the account authenticates, sign-in is refused with a message that says
-- so, and no run is charged. Reinstating clears it; the reason is the admin's note (audited too).
ALTER TABLE users ADD COLUMN suspended_at timestamptz;
ALTER TABLE users ADD COLUMN suspended_reason text;
