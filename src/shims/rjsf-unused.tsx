/**
 * Stand-in for @rjsf/core parts no descriptor uses: the layout-grid fields and the widgets the engine replaces or never
 * names (alt date/time, colour, range, rating, radio, URL, …). Keeps ~5 KB (gzip) off every form (decision 0046).
 * A descriptor that needs one gets a visible note instead of a silent gap.
 */
export default function UnusedRjsfPart(props: { id?: string }) {
  return <p data-unsupported={props.id}>This field type is not available.</p>;
}
