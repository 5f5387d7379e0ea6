/**
 * SAVED WALLETS GO HERE. The sign-in work provides `components/auth/saved-wallets.tsx`; the lead
 * replaces this placeholder's body with `<SavedWallets />` when merging (it renders nothing when the
 * person is signed out). Until then this renders nothing, so the home page stays honest.
 */
export function SavedWalletsSlot() {
  return null;
}
