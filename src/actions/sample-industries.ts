/** Industries the samples file companies under: the market data's names and the firmographic codes together. */
export interface Industry {
  /** As the financial data names them. */
  sector: string;
  industry: string;
  /** As the company data classifies them (GICS, SIC, NAICS). */
  category: {
    sector: string;
    industryGroup: string;
    industry: string;
    subIndustry: string;
    gicsCode: string;
    sicCode: string;
    sic4Codes: string[];
    naicsCode: string;
    naics6Codes: string[];
    naics6Codes2022: string[];
  };
  tags: string[];
  /** What such a company does, after its name: "<Name> offers ...". */
  offers: string;
}

const category = (
  sector: string,
  industryGroup: string,
  industry: string,
  subIndustry: string,
  gicsCode: string,
  sic4: string,
  naics6: string[],
): Industry['category'] => ({
  sector,
  industryGroup,
  industry,
  subIndustry,
  gicsCode,
  sicCode: sic4.slice(0, 2),
  sic4Codes: [sic4],
  naicsCode: naics6[0]!.slice(0, 2),
  naics6Codes: naics6,
  naics6Codes2022: naics6.slice(0, 1),
});

export const INDUSTRIES: readonly Industry[] = [
  {
    sector: 'Technology',
    industry: 'Software - Application',
    category: category('Information Technology', 'Software & Services', 'Software', 'Application Software', '45103010', '7372', ['513210', '541511']),
    tags: ['Technology', 'SAAS', 'B2B', 'Enterprise', 'Marketing Automation', 'CRM'],
    offers: 'offers a cloud-based customer platform of marketing, sales, service, content and operations software for mid-market businesses.',
  },
  {
    sector: 'Technology',
    industry: 'Software - Infrastructure',
    category: category('Information Technology', 'Software & Services', 'Software', 'Systems Software', '45103020', '7372', ['513210', '518210']),
    tags: ['Technology', 'Cloud', 'B2B', 'Enterprise', 'Developer Tools', 'Security'],
    offers: 'builds the cloud infrastructure, databases and developer tools that other software runs on.',
  },
  {
    sector: 'Financial Services',
    industry: 'Financial - Credit Services',
    category: category('Financials', 'Financial Services', 'Financial Services', 'Transaction & Payment Processing Services', '40201060', '6099', [
      '522320',
      '541511',
    ]),
    tags: ['Financial Services', 'Payments', 'B2B', 'Fintech', 'SAAS', 'E-commerce'],
    offers: 'runs payment processing, billing and financial infrastructure for online businesses of every size.',
  },
  {
    sector: 'Consumer Cyclical',
    industry: 'Apparel - Footwear & Accessories',
    category: category('Consumer Discretionary', 'Consumer Durables & Apparel', 'Textiles, Apparel & Luxury Goods', 'Footwear', '25203030', '3021', [
      '316210',
      '424340',
    ]),
    tags: ['Consumer Goods', 'Apparel', 'Footwear', 'Sports', 'B2C', 'Retail'],
    offers: 'designs and sells athletic footwear, apparel and equipment through its own stores, online and through retailers.',
  },
  {
    sector: 'Technology',
    industry: 'Consumer Electronics',
    category: category(
      'Information Technology',
      'Technology Hardware & Equipment',
      'Technology Hardware, Storage & Peripherals',
      'Technology Hardware, Storage & Peripherals',
      '45202030',
      '3571',
      ['334111', '334220'],
    ),
    tags: ['Technology', 'Consumer Electronics', 'Hardware', 'B2C', 'Mobile', 'Retail'],
    offers: 'designs phones, computers, tablets and wearables, and the software and services that run on them.',
  },
  {
    sector: 'Communication Services',
    industry: 'Internet Content & Information',
    category: category('Communication Services', 'Media & Entertainment', 'Interactive Media & Services', 'Interactive Media & Services', '50203010', '7370', [
      '519290',
      '541810',
    ]),
    tags: ['Internet', 'Advertising', 'B2C', 'Search', 'Social Media', 'Mobile'],
    offers: 'runs search, social and video services used by billions, funded mostly by advertising.',
  },
  {
    sector: 'Consumer Cyclical',
    industry: 'Specialty Retail',
    category: category('Consumer Discretionary', 'Consumer Discretionary Distribution & Retail', 'Broadline Retail', 'Broadline Retail', '25503030', '5961', [
      '455110',
      '493110',
    ]),
    tags: ['E-commerce', 'Retail', 'Marketplace', 'B2C', 'Logistics', 'Cloud'],
    offers: 'sells goods online and runs the marketplace, logistics and cloud services behind them.',
  },
  {
    sector: 'Consumer Cyclical',
    industry: 'Auto - Manufacturers',
    category: category('Consumer Discretionary', 'Automobiles & Components', 'Automobiles', 'Automobile Manufacturers', '25102010', '3711', [
      '336110',
      '335910',
    ]),
    tags: ['Automotive', 'Electric Vehicles', 'Energy', 'Manufacturing', 'B2C', 'Hardware'],
    offers: 'designs and builds electric vehicles, batteries and energy storage systems.',
  },
  {
    sector: 'Technology',
    industry: 'Semiconductors',
    category: category(
      'Information Technology',
      'Semiconductors & Semiconductor Equipment',
      'Semiconductors & Semiconductor Equipment',
      'Semiconductors',
      '45301020',
      '3674',
      ['334413', '541511'],
    ),
    tags: ['Technology', 'Semiconductors', 'Hardware', 'AI', 'B2B', 'Data Centers'],
    offers: 'designs the processors and accelerators that data centres, games and AI models run on.',
  },
  {
    sector: 'Technology',
    industry: 'Information Technology Services',
    category: category('Information Technology', 'Software & Services', 'IT Services', 'IT Consulting & Other Services', '45102010', '7373', [
      '541512',
      '518210',
    ]),
    tags: ['Technology', 'Consulting', 'B2B', 'Enterprise', 'Cloud', 'AI'],
    offers: 'provides hybrid cloud platforms, AI software and consulting to large enterprises.',
  },
  {
    sector: 'Consumer Defensive',
    industry: 'Beverages - Non-Alcoholic',
    category: category('Consumer Staples', 'Food, Beverage & Tobacco', 'Beverages', 'Soft Drinks & Non-alcoholic Beverages', '30201030', '2086', [
      '312111',
      '424490',
    ]),
    tags: ['Consumer Goods', 'Beverages', 'Food & Beverage', 'B2C', 'Brands', 'Distribution'],
    offers: 'makes and markets soft drinks, juices, waters and coffees sold in more than 200 countries.',
  },
  {
    sector: 'Financial Services',
    industry: 'Insurance - Diversified',
    category: category('Financials', 'Financial Services', 'Financial Services', 'Multi-Sector Holdings', '40201030', '6331', ['524126', '551112']),
    tags: ['Financial Services', 'Insurance', 'Holding Company', 'Investments', 'B2B', 'Energy'],
    offers: 'owns insurance, railroad, energy and manufacturing businesses and a large portfolio of listed shares.',
  },
  {
    sector: 'Healthcare',
    industry: 'Medical - Devices',
    category: category('Health Care', 'Health Care Equipment & Services', 'Health Care Equipment & Supplies', 'Health Care Equipment', '35101010', '3841', [
      '339112',
      '334510',
    ]),
    tags: ['Healthcare', 'Medical Devices', 'B2B', 'Hospitals', 'Manufacturing', 'Research'],
    offers: 'develops and manufactures medical devices for hospitals, clinics and home care.',
  },
  {
    sector: 'Consumer Cyclical',
    industry: 'Travel Services',
    category: category('Consumer Discretionary', 'Consumer Services', 'Hotels, Restaurants & Leisure', 'Hotels, Resorts & Cruise Lines', '25301020', '4724', [
      '561510',
      '519290',
    ]),
    tags: ['Travel', 'Marketplace', 'B2C', 'Hospitality', 'Mobile', 'Internet'],
    offers: 'runs an online marketplace for stays, flights and experiences.',
  },
];

/** The industry of that (financial-data) name; the first one when the samples do not know it. */
export function industryNamed(name: string | null): Industry {
  return INDUSTRIES.find((entry) => entry.industry === name) ?? INDUSTRIES[0]!;
}
