/** A user as other people see them: enough for a chat window, a post's author, a search hit. */
export interface UserRef {
  id: number;
  profileName: string;
  username: string;
  profilePicturePath: string | null;
}

interface UserRow {
  id: number;
  profile_name: string;
  username: string;
  profile_picture: string | null;
}

/** The columns a UserRef is read from. */
export const USER_COLUMNS = ['id', 'profile_name', 'username', 'profile_picture'] as const;

export const toRef = (row: UserRow): UserRef => ({
  id: row.id,
  profileName: row.profile_name,
  username: row.username,
  profilePicturePath: row.profile_picture,
});
