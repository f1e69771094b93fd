import type { OtcResult } from '../../admin-api/contract.ts'

/** The lines `prebuy otc show|set|deposit` print for a project's offer (terminal-safe output is the command's job). */
export function otcLines({ slug, otc }: OtcResult): string[] {
  if (!otc) return [`${slug}: no OTC offer yet (prebuy otc set ${slug} ...)`]
  const lines = [
    `${slug}: ${otc.tokenAmount} ${otc.tokenSymbol} (${otc.tokenAddress}) at an FDV of $${otc.fdvUsdc}, settling at or after ${otc.settleAt}`,
    `Offer id:    ${otc.offerId}`,
    `Lock:        ${lockLine(otc.lockSeconds, otc.vestingSeconds)}`,
    `Deposit:     ${otc.deposited ? `deposited${otc.depositTxHash ? ` in ${otc.depositTxHash}` : ''}` : 'not yet (prebuy otc deposit)'}`,
  ]
  const s = otc.settlement
  if (!s) lines.push('Settlement:  not started')
  else if (s.status === 'settled')
    lines.push(
      `Settlement:  settled in ${s.txHash}: ${s.soldTokens} ${otc.tokenSymbol} sold to ${s.filledOrders} orders for $${s.proceedsUsdc}, ${s.unsoldTokens} returned`,
    )
  else lines.push(`Settlement:  ${s.status} since ${s.at}${s.reason ? `: ${s.reason}` : ''}`)
  // An id left for a fresh one: what was on chain under it differed from the record (never counted, never settled).
  for (const left of otc.supersededOffers) lines.push(`Superseded:  ${left.offerId} at ${left.at}: ${left.reason}`)
  return lines
}

/** "none", or the cliff and the vesting period after the settlement block, in days when whole. */
function lockLine(lockSeconds: number, vestingSeconds: number): string {
  if (lockSeconds === 0 && vestingSeconds === 0) return 'none: tokens go to the buyers’ wallets'
  const span = (s: number) => (s % 86_400 === 0 ? `${s / 86_400} days` : `${s} s`)
  return `${lockSeconds === 0 ? 'no cliff' : `locked ${span(lockSeconds)}`} after the settlement, then vesting linearly over ${span(vestingSeconds)}`
}
