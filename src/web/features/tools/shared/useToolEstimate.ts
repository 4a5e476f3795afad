import { useQuery } from '@tanstack/react-query';
import { call, client } from '../../../lib/api';
import { fetchLibraryItem } from '../../library/api';
import { registeredInfo } from '../form/registry';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The estimated time of a run as measured on this server (recent runs of the tool, scaled to the
 * picked picture's size), falling back to the published range until enough runs have been timed.
 */
export function useToolEstimate(endpoint: string, body: Record<string, unknown> | null, enabled: boolean): string {
  const ref = typeof body?.image_url === 'string' && UUID.test(body.image_url) ? body.image_url : null;
  const item = useQuery({
    queryKey: ['library', 'item', ref],
    queryFn: ({ signal }) => fetchLibraryItem(ref!, signal),
    enabled: enabled && !!ref,
    staleTime: 60_000,
  });
  const mp = item.data?.width && item.data?.height ? (item.data.width * item.data.height) / 1e6 : undefined;
  const estimate = useQuery({
    queryKey: ['tool-estimate', endpoint, mp ? mp.toFixed(2) : null],
    queryFn: ({ signal }) =>
      call(
        client.GET('/api/tools/{tool}/estimate', {
          params: { path: { tool: endpoint }, query: { megapixels: mp ? Number(mp.toFixed(3)) : undefined } },
          signal,
        }),
      ),
    enabled: enabled && (!ref || !item.isPending),
    staleTime: 30_000,
  });
  return estimate.data?.text ?? registeredInfo(endpoint).estimate;
}
