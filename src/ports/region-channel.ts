/**
 * What one region tells the others of a link (issue 25, ADR 0141): a change (edit, disable,
 * delete, expiry) every region's caches must drop, or a create every region's caches may
 * hold as absent. Keyed like the caches (the code, or `host/code` on another domain).
 */
export interface RegionLinkChange {
  readonly kind: 'changed' | 'created';
  readonly key: string;
  readonly version: number;
  /** The region it was made in. */
  readonly region: string;
}

/**
 * The channel between regions. Publishing never blocks or rejects: a change that cannot be
 * sent now is sent once the channel is back (ADR 0141).
 */
export interface RegionChannel {
  publish(change: RegionLinkChange): void;
  /** Registers the listener told of changes made in other regions, one instance per region. */
  onChange(listener: (change: RegionLinkChange) => void): void;
  close(): Promise<void>;
}
