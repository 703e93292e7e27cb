import type { ChatWindowEntry, OwnProfile, PublicProfile, Role, UserInfo } from '@marketplace/shared/contract';
import type { SessionUser } from '../http/env.js';
import type { FileUrls } from '../repositories/urls.js';
import type { OwnProfileRecord, ProfileDetails } from '../repositories/users/profiles.js';
import type { UserRef } from '../repositories/users/ref.js';

/** A user as the contract shows them: their picture by its public URL. */
export function userViews(urls: FileUrls) {
  const info = (user: Omit<UserRef, 'id'> & { roles: Role[] }): UserInfo => ({
    roles: user.roles,
    profileName: user.profileName,
    profilePicture: urls.media(user.profilePicturePath),
    username: user.username,
  });

  return {
    info,

    chatEntry: (user: UserRef): ChatWindowEntry => ({
      profileName: user.profileName,
      username: user.username,
      profilePicture: urls.media(user.profilePicturePath),
    }),

    ownProfile: (user: SessionUser, profile: OwnProfileRecord): OwnProfile => ({
      ...info({ ...user, username: profile.username, profilePicturePath: profile.profilePicturePath }),
      email: profile.email,
      bio: profile.bio,
      createdAt: profile.createdAt,
    }),

    publicProfile: (user: UserRef, details: ProfileDetails): PublicProfile => ({
      profileName: user.profileName,
      username: user.username,
      profilePicture: urls.media(user.profilePicturePath),
      bio: details.bio,
      roles: details.roles,
      memberSince: details.createdAt,
    }),
  };
}
