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

/**
 * A row of INDUSTRIES: the financial data's sector and industry; the company data's GICS sector,
 * industry group, industry and sub-industry; its GICS code, SIC code (4 digits) and NAICS codes
 * (6 digits, the 2022 one first); the tags; what such a company offers.
 */
type Row = [
  market: [sector: string, industry: string],
  gics: [sector: string, industryGroup: string, industry: string, subIndustry: string],
  codes: [gicsCode: string, sic4: string, naics6: string[]],
  tags: string[],
  offers: string,
];

const industry = ([
  [sector, industry],
  [gicsSector, industryGroup, gicsIndustry, subIndustry],
  [gicsCode, sic4, naics6],
  tags,
  offers,
]: Row): Industry => ({
  sector,
  industry,
  category: {
    sector: gicsSector,
    industryGroup,
    industry: gicsIndustry,
    subIndustry,
    gicsCode,
    sicCode: sic4.slice(0, 2),
    sic4Codes: [sic4],
    naicsCode: naics6[0]!.slice(0, 2),
    naics6Codes: naics6,
    naics6Codes2022: naics6.slice(0, 1),
  },
  tags,
  offers,
});

const ROWS: Row[] = [
  [
    ['Technology', 'Software - Application'],
    ['Information Technology', 'Software & Services', 'Software', 'Application Software'],
    ['45103010', '7372', ['513210', '541511']],
    ['Technology', 'SAAS', 'B2B', 'Enterprise', 'Marketing Automation', 'CRM'],
    'offers a cloud-based customer platform of marketing, sales, service, content and operations software for mid-market businesses.',
  ],
  [
    ['Technology', 'Software - Infrastructure'],
    ['Information Technology', 'Software & Services', 'Software', 'Systems Software'],
    ['45103020', '7372', ['513210', '518210']],
    ['Technology', 'Cloud', 'B2B', 'Enterprise', 'Developer Tools', 'Security'],
    'builds the cloud infrastructure, databases and developer tools that other software runs on.',
  ],
  [
    ['Financial Services', 'Financial - Credit Services'],
    ['Financials', 'Financial Services', 'Financial Services', 'Transaction & Payment Processing Services'],
    ['40201060', '6099', ['522320', '541511']],
    ['Financial Services', 'Payments', 'B2B', 'Fintech', 'SAAS', 'E-commerce'],
    'runs payment processing, billing and financial infrastructure for online businesses of every size.',
  ],
  [
    ['Consumer Cyclical', 'Apparel - Footwear & Accessories'],
    ['Consumer Discretionary', 'Consumer Durables & Apparel', 'Textiles, Apparel & Luxury Goods', 'Footwear'],
    ['25203030', '3021', ['316210', '424340']],
    ['Consumer Goods', 'Apparel', 'Footwear', 'Sports', 'B2C', 'Retail'],
    'designs and sells athletic footwear, apparel and equipment through its own stores, online and through retailers.',
  ],
  [
    ['Technology', 'Consumer Electronics'],
    [
      'Information Technology',
      'Technology Hardware & Equipment',
      'Technology Hardware, Storage & Peripherals',
      'Technology Hardware, Storage & Peripherals',
    ],
    ['45202030', '3571', ['334111', '334220']],
    ['Technology', 'Consumer Electronics', 'Hardware', 'B2C', 'Mobile', 'Retail'],
    'designs phones, computers, tablets and wearables, and the software and services that run on them.',
  ],
  [
    ['Communication Services', 'Internet Content & Information'],
    ['Communication Services', 'Media & Entertainment', 'Interactive Media & Services', 'Interactive Media & Services'],
    ['50203010', '7370', ['519290', '541810']],
    ['Internet', 'Advertising', 'B2C', 'Search', 'Social Media', 'Mobile'],
    'runs search, social and video services used by billions, funded mostly by advertising.',
  ],
  [
    ['Consumer Cyclical', 'Specialty Retail'],
    ['Consumer Discretionary', 'Consumer Discretionary Distribution & Retail', 'Broadline Retail', 'Broadline Retail'],
    ['25503030', '5961', ['455110', '493110']],
    ['E-commerce', 'Retail', 'Marketplace', 'B2C', 'Logistics', 'Cloud'],
    'sells goods online and runs the marketplace, logistics and cloud services behind them.',
  ],
  [
    ['Consumer Cyclical', 'Auto - Manufacturers'],
    ['Consumer Discretionary', 'Automobiles & Components', 'Automobiles', 'Automobile Manufacturers'],
    ['25102010', '3711', ['336110', '335910']],
    ['Automotive', 'Electric Vehicles', 'Energy', 'Manufacturing', 'B2C', 'Hardware'],
    'designs and builds electric vehicles, batteries and energy storage systems.',
  ],
  [
    ['Technology', 'Semiconductors'],
    [
      'Information Technology',
      'Semiconductors & Semiconductor Equipment',
      'Semiconductors & Semiconductor Equipment',
      'Semiconductors',
    ],
    ['45301020', '3674', ['334413', '541511']],
    ['Technology', 'Semiconductors', 'Hardware', 'AI', 'B2B', 'Data Centers'],
    'designs the processors and accelerators that data centres, games and AI models run on.',
  ],
  [
    ['Technology', 'Information Technology Services'],
    ['Information Technology', 'Software & Services', 'IT Services', 'IT Consulting & Other Services'],
    ['45102010', '7373', ['541512', '518210']],
    ['Technology', 'Consulting', 'B2B', 'Enterprise', 'Cloud', 'AI'],
    'provides hybrid cloud platforms, AI software and consulting to large enterprises.',
  ],
  [
    ['Consumer Defensive', 'Beverages - Non-Alcoholic'],
    ['Consumer Staples', 'Food, Beverage & Tobacco', 'Beverages', 'Soft Drinks & Non-alcoholic Beverages'],
    ['30201030', '2086', ['312111', '424490']],
    ['Consumer Goods', 'Beverages', 'Food & Beverage', 'B2C', 'Brands', 'Distribution'],
    'makes and markets soft drinks, juices, waters and coffees sold in more than 200 countries.',
  ],
  [
    ['Financial Services', 'Insurance - Diversified'],
    ['Financials', 'Financial Services', 'Financial Services', 'Multi-Sector Holdings'],
    ['40201030', '6331', ['524126', '551112']],
    ['Financial Services', 'Insurance', 'Holding Company', 'Investments', 'B2B', 'Energy'],
    'owns insurance, railroad, energy and manufacturing businesses and a large portfolio of listed shares.',
  ],
  [
    ['Healthcare', 'Medical - Devices'],
    ['Health Care', 'Health Care Equipment & Services', 'Health Care Equipment & Supplies', 'Health Care Equipment'],
    ['35101010', '3841', ['339112', '334510']],
    ['Healthcare', 'Medical Devices', 'B2B', 'Hospitals', 'Manufacturing', 'Research'],
    'develops and manufactures medical devices for hospitals, clinics and home care.',
  ],
  [
    ['Consumer Cyclical', 'Travel Services'],
    ['Consumer Discretionary', 'Consumer Services', 'Hotels, Restaurants & Leisure', 'Hotels, Resorts & Cruise Lines'],
    ['25301020', '4724', ['561510', '519290']],
    ['Travel', 'Marketplace', 'B2C', 'Hospitality', 'Mobile', 'Internet'],
    'runs an online marketplace for stays, flights and experiences.',
  ],
];

export const INDUSTRIES: readonly Industry[] = ROWS.map(industry);

/** The industry of that (financial-data) name; the first one when the samples do not know it. */
export function industryNamed(name: string | null): Industry {
  return INDUSTRIES.find((entry) => entry.industry === name) ?? INDUSTRIES[0]!;
}
