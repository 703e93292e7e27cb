import { PASSWORD_HINT, passwordProblem, TextField } from '@marketplace/shared';

/** The new password's two boxes: its problem and the second box's, each beside its box. */
export function newPasswordProblems(password: string, again: string) {
  return {
    password: passwordProblem(password),
    again: again !== password ? 'The two passwords differ' : undefined,
  };
}

/**
 * A new password and the same again, as reset and change ask for it: the rule is the first box's
 * hint, shown before anything is typed. `names` are the form's names of the two boxes.
 */
export function NewPasswordFields({
  names,
  errors,
}: {
  names: { password: string; again: string };
  errors: { password?: string | undefined; again?: string | undefined };
}) {
  return (
    <>
      <TextField
        label="New password"
        name={names.password}
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        error={errors.password}
        required
      />
      <TextField
        label="New password again"
        name={names.again}
        type="password"
        autoComplete="new-password"
        error={errors.again}
        required
      />
    </>
  );
}
