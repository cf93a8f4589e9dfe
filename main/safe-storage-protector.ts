// Seals the manager's private keys with the OS key store through Electron's safeStorage (desktop app only).
import { safeStorage } from 'electron';
import { CoreError } from './core/errors';
import type { KeyProtector } from './core/keys/protector';

export function safeStorageProtector(): KeyProtector {
  if (!safeStorage.isEncryptionAvailable()) {
    throw new CoreError(
      'os_keystore_unavailable',
      'the OS key store is not available; run navin-manager serve with NAVIN_MASTER_KEY_FILE instead',
    );
  }
  return {
    kind: 'os-keystore',
    seal: (plain) => safeStorage.encryptString(Buffer.from(plain).toString('base64')),
    open: (sealed) => Buffer.from(safeStorage.decryptString(Buffer.from(sealed)), 'base64'),
  };
}
