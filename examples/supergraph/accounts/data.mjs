/** The accounts the example subgraph serves: two share a company (one pasted as a URL), holdings repeat symbols in other spellings ("hubs", "$msft"). */
export const ACCOUNTS = [
  {
    id: 'acct-1',
    name: 'HubSpot (marketing team)',
    website: 'https://www.hubspot.com/',
    holdings: [
      { symbol: 'HUBS', shares: 120 },
      { symbol: 'aapl', shares: 40 },
    ],
    lead: 'https://www.professionalnet.example/in/sam-rivera/',
  },
  {
    id: 'acct-2',
    name: 'HubSpot (sales team)',
    website: 'hubspot.com',
    holdings: [{ symbol: 'hubs', shares: 15 }],
    lead: null,
  },
  {
    id: 'acct-3',
    name: 'Nike',
    website: 'nike.com',
    holdings: [
      { symbol: 'NKE', shares: 300 },
      { symbol: '$msft', shares: 5 },
    ],
    lead: 'sam-rivera',
  },
];
