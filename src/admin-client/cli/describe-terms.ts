import type { TermsView } from '../../domain/owner-change-view.ts'

/** Terms of what the orders buy, on one line (CLI and review console). */
export function describeTerms(terms: TermsView | null): string {
  if (terms === null) return 'none'
  if (terms.kind === 'launch_binding') {
    const symbol = terms.expectedSymbol ? `, symbol ${terms.expectedSymbol}${terms.expectedName ? ` (${terms.expectedName})` : ''}` : ''
    return `deployer ${terms.creatorAddress}, expected token ${terms.expectedTokenAddress ?? 'none'}${symbol}`
  }
  const lock = terms.lockSeconds > 0 || terms.vestingSeconds > 0 ? `, lock ${terms.lockSeconds} s + vesting ${terms.vestingSeconds} s` : ''
  return `${terms.tokenAmount} ${terms.tokenSymbol} (${terms.tokenAddress}) at FDV $${terms.fdvUsdc}, supply ${terms.totalSupply}, settle ${terms.settleAt}${lock}`
}
