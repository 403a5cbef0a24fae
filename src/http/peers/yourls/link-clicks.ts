import { NO_CLICKS } from '../../../domain/click-fold.js';
import type { Link } from '../../../domain/link.js';
import { linkClickTotals } from '../../../services/analytics/link-click-totals.js';
import type { AppDeps } from '../../app-deps.js';

/** A link's all-time people's clicks: /v1's `clicks`, YOURLS's `clicks` column. */
export async function clicksOf(deps: Pick<AppDeps, 'analytics'>, link: Link): Promise<number> {
  const totals = await linkClickTotals(deps.analytics, [link.id]);
  return (totals.get(link.id) ?? NO_CLICKS).clicks;
}
