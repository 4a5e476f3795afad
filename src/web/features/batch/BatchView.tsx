import type { DashboardViewProps } from '../dashboard/view-ids';
import { BatchPage } from './BatchPage';
import { NewBatch } from './NewBatch';

/** The dashboard view 'batch': /dashboard/batch starts a batch, /dashboard/batch/<id> follows one. */
export default function BatchView({ param, openView }: DashboardViewProps) {
  return param ? <BatchPage id={param} openView={openView} /> : <NewBatch openView={openView} />;
}
