-- Invite codes and referrals (requirements §3 referral_invites, user_referrals).
-- referral_settings (the admin switch) lives with the admin settings.

CREATE TABLE referral_invites (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  inviter_id   uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  invite_code  text NOT NULL UNIQUE CHECK (invite_code = upper(invite_code)),
  max_uses     integer NOT NULL DEFAULT 1 CHECK (max_uses >= 1),
  current_uses integer NOT NULL DEFAULT 0 CHECK (current_uses >= 0),
  expires_at   timestamptz NOT NULL,
  is_active    boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  -- The backstop behind the conditional redeem: a code is never over-used.
  CHECK (current_uses <= max_uses)
);
CREATE INDEX referral_invites_inviter_idx ON referral_invites (inviter_id, created_at DESC, id DESC);
CREATE INDEX referral_invites_created_idx ON referral_invites (created_at DESC, id DESC);

CREATE TABLE user_referrals (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  referrer_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- A person is referred once.
  referred_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  invite_id   uuid REFERENCES referral_invites(id) ON DELETE SET NULL,
  invite_code text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_referrals_referrer_idx ON user_referrals (referrer_id, created_at DESC, id DESC);
CREATE INDEX user_referrals_created_idx ON user_referrals (created_at DESC, id DESC);
