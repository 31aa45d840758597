/**
 * The upstream's own text beside every parsed date or timestamp whose parsing can fail: when the
 * parsed field is null because the upstream wrote something unexpected, a client still has what was
 * sent. (Fields that already keep their text, such as `publishedTime` and `joinedDateText`, are not
 * repeated.)
 */
import { Company } from './company-object/types.js';
import { CrmOwner } from './crm-owners/types.js';
import { DomainRecord } from './domain-info/types.js';
import { FinancialProfile } from './financial-profile/types.js';
import { MicroblogPost } from './microblog-posts/types.js';
import { builder } from '../schema/builder.js';
import { text } from '../schema/read.js';

const twin = (parsed: string, upstream: string) =>
  `\`${parsed}\` exactly as the upstream wrote it (upstream \`${upstream}\`); kept because parsing can fail, when \`${parsed}\` is null.`;

builder.objectFields(Company, (t) => ({
  indexedAtText: t.string({ description: twin('indexedAt', 'indexedAt'), resolve: (c) => text(c.raw.indexedAt) }),
}));

builder.objectFields(CrmOwner, (t) => ({
  createdAtText: t.string({ description: twin('createdAt', 'createdAt'), resolve: (o) => text(o.createdAt) }),
  updatedAtText: t.string({ description: twin('updatedAt', 'updatedAt'), resolve: (o) => text(o.updatedAt) }),
}));

builder.objectFields(DomainRecord, (t) => ({
  createdOnText: t.string({ description: twin('createdOn', 'create_date'), resolve: (d) => text(d.raw.create_date) }),
  updatedOnText: t.string({ description: twin('updatedOn', 'update_date'), resolve: (d) => text(d.raw.update_date) }),
  expiresOnText: t.string({ description: twin('expiresOn', 'expiry_date'), resolve: (d) => text(d.raw.expiry_date) }),
}));

builder.objectFields(FinancialProfile, (t) => ({
  ipoDateText: t.string({ description: twin('ipoDate', 'ipoDate'), resolve: (p) => text(p.ipoDate) }),
}));

builder.objectFields(MicroblogPost, (t) => ({
  createdAtText: t.string({ description: twin('createdAt', 'createdAt'), resolve: (p) => text(p.createdAt) }),
}));
