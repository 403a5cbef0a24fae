import { count } from '../format.js';

/** One dimension's clicks as a table with proportional bars, most first. */
export function Breakdown(props: {
  caption: string;
  rows: readonly { readonly name: string; readonly clicks: number }[];
}) {
  const total = props.rows.reduce((sum, row) => sum + row.clicks, 0);
  return (
    <table class="breakdown">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.caption.replace(/^By /, '')}</th>
          <th scope="col" class="num">
            Clicks
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 && (
          <tr>
            <td colSpan={2} class="empty">
              No clicks yet
            </td>
          </tr>
        )}
        {props.rows.map((row) => (
          <tr key={row.name}>
            <td>
              <span class="name">{row.name}</span>
              {/* A thin bar under the name: its height is its own, whatever the row's. */}
              <span class="share" style={{ width: `${(row.clicks / total) * 100}%` }} />
            </td>
            <td class="num">{count(row.clicks)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
