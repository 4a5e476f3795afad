/** GET /api/me: the profile in the spec's field names plus role flags. */
export interface MeResponse {
  id: string;
  email: string;
  full_name: string;
  energy_balance: number;
  total_energy_purchased: number;
  is_vip: boolean;
  is_admin: boolean;
}
