import type { DevBuyResult } from '../../admin-api/contract.ts'

/** The lines `prebuy devbuy show|set` and `prebuy launches start` print for a project's dev-buy launch. */
export function devBuyLines({ slug, devBuy }: DevBuyResult): string[] {
  if (!devBuy) return [`${slug}: no dev-buy launch parameters yet (prebuy devbuy set ${slug} --name ... --symbol ...)`]
  const lines = [
    `${slug}: ${devBuy.name} (${devBuy.symbol}), token admin ${devBuy.tokenAdmin}`,
    `Launch id:   ${devBuy.launchId}`,
    `Lock:        ${devBuy.lockSeconds === 0 && devBuy.vestingSeconds === 0 ? 'none: shares go to the wallets' : `${devBuy.lockSeconds} s cliff after the launch block, then ${devBuy.vestingSeconds} s linear vesting`}`,
    `Pool:        ${devBuy.pool === null ? "the service's defaults" : `starting tick ${devBuy.pool.startingTick}, ${devBuy.pool.lpFeeBps} bps LP fee, positions ${devBuy.pool.positions.map((p) => `[${p.tickLower}, ${p.tickUpper}] ${p.bps} bps`).join(', ')}`}`,
    `Requested:   ${devBuy.requestedAt ?? `not yet (prebuy launches start ${slug})`}`,
  ]
  const s = devBuy.state
  if (!s) lines.push(`Launch:      ${devBuy.requestedAt ? 'waiting for the dev-buy worker' : 'not started'}`)
  else if (s.status === 'launched')
    lines.push(
      `Launch:      launched ${s.tokenAddress} in ${s.txHash}: $${s.spentUsdc} from ${s.filledOrders} orders bought ${s.boughtTokens} ${devBuy.symbol} with ${s.ethIn} ETH (fee ${s.feeTokens})`,
    )
  else lines.push(`Launch:      ${s.status} since ${s.at}${s.tokenAddress ? ` (token ${s.tokenAddress})` : ''}${s.reason ? `: ${s.reason}` : ''}`)
  return lines
}
