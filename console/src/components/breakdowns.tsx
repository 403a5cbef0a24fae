import type { Analytics } from '../api.js';
import { countryName } from '../format.js';
import { Breakdown } from './breakdown.js';

/** A range's clicks by country, device, browser, OS, city (when placed) and referrer. */
export function Breakdowns({
  analytics,
}: {
  analytics: Omit<Analytics, 'by_city'> & Partial<Pick<Analytics, 'by_city'>>;
}) {
  const cities = analytics.by_city ?? [];
  return (
    <div class="breakdowns">
      <Breakdown
        caption="By country"
        rows={analytics.by_country.map((r) => ({ name: countryName(r.country), clicks: r.clicks }))}
      />
      <Breakdown
        caption="By device"
        rows={analytics.by_device.map((r) => ({ name: r.device, clicks: r.clicks }))}
      />
      <Breakdown
        caption="By browser"
        rows={analytics.by_browser.map((r) => ({ name: r.browser, clicks: r.clicks }))}
      />
      <Breakdown
        caption="By operating system"
        rows={analytics.by_os.map((r) => ({ name: r.os, clicks: r.clicks }))}
      />
      {cities.length > 0 && (
        <Breakdown
          caption="By city"
          rows={cities.map((r) => ({ name: r.city, clicks: r.clicks }))}
        />
      )}
      <Breakdown
        caption="By referrer"
        rows={analytics.by_referrer.map((r) => ({
          name: r.referrer === '' ? '(none)' : r.referrer,
          clicks: r.clicks,
        }))}
      />
    </div>
  );
}
