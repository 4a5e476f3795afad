import type { ReactNode } from 'react';
import { LabeledInput } from '../../components/LabeledField';

/** A new password and its repeat, asked alike by the change-password card and the reset page. */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  icon,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  icon?: ReactNode;
}) {
  return (
    <>
      <LabeledInput label="New password" icon={icon} type="password" autoComplete="new-password" placeholder="At least 6 characters" value={password} onChange={onPassword} />
      <LabeledInput label="Confirm new password" icon={icon} type="password" autoComplete="new-password" value={confirm} onChange={onConfirm} />
    </>
  );
}
