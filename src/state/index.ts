import { bindDrawingSettingsToUser } from './drawing-settings';
import { bindHotkeysToUser } from './hotkeys';
import { bindUserSettingsToUser } from './user-settings';

export * from './user-settings';
export * from './drawing-settings';
export * from './session';
export * from './alerts';
export * from './favorites';
export * from './chart-links';
export * from './workstation-layout-cache';
export * from './hotkeys';
export { configureStateStorage, storageNameFor, type StorageLike } from './storage';

/**
 * Points every locally persisted store at the storage names of `userId` (null = signed out: the
 * generic names). The app calls this whenever the signed-in user changes.
 */
export async function bindLocalStateToUser(userId: string | null): Promise<void> {
  await Promise.all([bindUserSettingsToUser(userId), bindDrawingSettingsToUser(userId), bindHotkeysToUser(userId)]);
}
