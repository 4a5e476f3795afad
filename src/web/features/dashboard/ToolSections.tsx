import type { ComponentType, ReactNode } from 'react';
import clsx from 'clsx';
import {
  Brain,
  Film,
  Images,
  Info,
  KeyRound,
  Layers,
  SlidersHorizontal,
  Users,
  Zap,
} from 'lucide-react';
import type { AuthUser } from '../../app/auth';
import type { Accent } from '../../components/IconTile';
import { PRICING_FALLBACK_NOTICE, usePricing } from '../../lib/usePricing';
import { batchTools, webTools, type WebTool } from '../tools/form/registry';
import { CardBadge, ToolCard } from './ToolCard';
import { toolViewId, type ViewId } from './view-ids';

function Section({
  title,
  id,
  children,
  note,
  wide,
}: {
  title: string;
  id: string;
  children: ReactNode;
  note?: ReactNode;
  /** Five cards: one row of five on wide screens. */
  wide?: boolean;
}) {
  return (
    <section aria-labelledby={id}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-sm font-semibold tracking-wider text-zinc-400 uppercase">
          {title}
        </h2>
        {note}
      </div>
      <div className={clsx('grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3', wide ? 'xl:grid-cols-5' : 'xl:grid-cols-4')}>
        {children}
      </div>
    </section>
  );
}

function Free({ label = 'FREE' }: { label?: string }) {
  return <span className="font-semibold text-emerald-400">{label}</span>;
}

function Cost({ amount, unit, prefix }: { amount: number; unit: string; prefix?: string }) {
  return (
    <span className="flex items-center gap-1.5 text-zinc-300">
      <Zap className="size-4 text-amber-400" fill="currentColor" aria-hidden="true" />
      {prefix && <span className="text-zinc-400">{prefix}</span>}
      <span className="font-semibold text-amber-300">{amount} ENERGY</span>
      <span className="text-zinc-400">{unit}</span>
    </span>
  );
}

/** A card that opens a page (not a tool). */
interface PageCard {
  view: ViewId;
  title: string;
  description: string;
  icon: ComponentType<{ className?: string }>;
  accent: Accent;
  /** Marked ADMIN. */
  admin?: boolean;
  /** Its bottom line: FREE, a batch's starting price, or words of its own. */
  cost: 'free' | 'batch' | string;
}

const ADMIN_CARDS: readonly PageCard[] = [
  { view: 'admin', title: 'Admin Dashboard', description: 'Manage AI tool pricing and global discount settings', icon: SlidersHorizontal, accent: 'amber', admin: true, cost: 'Pricing, discounts, plans' },
  { view: 'referrals', title: 'Referrals', description: 'Manage invite codes and track referrals', icon: Users, accent: 'emerald', admin: true, cost: 'Invite codes, referrals' },
];

const MEDIA_CARDS: readonly PageCard[] = [
  { view: 'gallery', title: 'My Images', description: 'Browse, download and reuse your uploaded and generated images', icon: Images, accent: 'violet', cost: 'free' },
  { view: 'video-gallery', title: 'My Videos', description: 'Watch and download the videos you generated', icon: Film, accent: 'rose', cost: 'free' },
  { view: 'batch', title: 'Batch Processing', description: 'Process several images at once', icon: Layers, accent: 'emerald', cost: 'batch' },
];

const DEVELOPER_CARDS: readonly PageCard[] = [
  { view: 'api-keys', title: 'API Keys', description: 'Script the tools from your own code, with webhooks when runs end', icon: KeyRound, accent: 'sky', cost: 'free' },
];

/** The dashboard grid: Admin Controls (admins), the AI tools, and Media Management. */
export function ToolSections({ user, onOpen }: { user: AuthUser; onOpen: (view: ViewId) => void }) {
  const pricing = usePricing();

  const priceLine = ({ info }: WebTool) => {
    if (user.isAdmin) return <Free label="FREE (ADMIN)" />;
    if (user.isVip) return <Free label="FREE (VIP)" />;
    return <Cost amount={pricing.costOf(info)} unit={info.output === 'video' ? 'per video' : 'per image'} />;
  };

  // A batch is charged per image at its tool's price: the cheapest of them is where it starts.
  const batchPriceLine = () => {
    if (user.isAdmin) return <Free label="FREE (ADMIN)" />;
    if (user.isVip) return <Free label="FREE (VIP)" />;
    const from = Math.min(...batchTools().map((t) => pricing.costOf(t.info)));
    return <Cost amount={from} unit="per image" prefix="from" />;
  };

  const pageCard = (card: PageCard) => (
    <ToolCard
      key={card.view}
      cardId={card.view}
      title={card.title}
      description={card.description}
      icon={card.icon}
      accent={card.accent}
      badge={card.admin ? <CardBadge tone="amber">ADMIN</CardBadge> : undefined}
      cost={card.cost === 'free' ? <Free /> : card.cost === 'batch' ? batchPriceLine() : <span className="text-zinc-400">{card.cost}</span>}
      onOpen={() => onOpen(card.view)}
    />
  );

  return (
    <div className="space-y-10">
      {user.isAdmin && (
        <Section title="Admin Controls" id="section-admin">
          {ADMIN_CARDS.map(pageCard)}
        </Section>
      )}

      <Section
        title="Image & Video Tools"
        id="section-tools"
        wide
        note={
          pricing.usingFallback ? (
            <p role="status" className="flex items-center gap-1.5 text-xs text-amber-300/90">
              <Info className="size-3.5" aria-hidden="true" />
              {PRICING_FALLBACK_NOTICE}
            </p>
          ) : undefined
        }
      >
        {webTools().map((t) => (
          <ToolCard
            key={t.info.endpoint}
            cardId={t.info.endpoint}
            title={t.info.price.displayName}
            description={pricing.rowOf(t.info.pricing)?.description || t.info.price.description}
            icon={t.icon}
            accent={t.accent}
            badge={t.info.output === 'video' ? <CardBadge tone="fuchsia">VIDEO</CardBadge> : undefined}
            cost={priceLine(t)}
            onOpen={() => onOpen(toolViewId(t))}
          />
        ))}
      </Section>

      <Section title="Media Management" id="section-media">
        {MEDIA_CARDS.map(pageCard)}
        <ToolCard
          cardId="custom-models"
          title="Custom Models"
          description="Train your own models"
          icon={Brain}
          badge={<CardBadge>SOON</CardBadge>}
          cost={<span className="text-zinc-400">Cost: TBD</span>}
          disabled
        />
      </Section>

      <Section title="Developers" id="section-developers">
        {DEVELOPER_CARDS.map(pageCard)}
      </Section>
    </div>
  );
}
