/** Cities the samples place companies and people in, with what an address there needs. */
export interface City {
  city: string;
  state: string;
  stateCode: string;
  country: string;
  countryCode: string;
  lat: number;
  lng: number;
  timeZone: string;
  /** Hours from UTC in winter. */
  utcOffset: number;
  /** The first digits of its postal codes. */
  zipPrefix: string;
  /** Calling code and area code of its phone numbers. */
  dial: string;
  area: string;
}

const us = (
  city: string,
  state: string,
  stateCode: string,
  lat: number,
  lng: number,
  timeZone: string,
  utcOffset: number,
  zipPrefix: string,
  area: string,
): City => ({
  city,
  state,
  stateCode,
  country: 'United States',
  countryCode: 'US',
  lat,
  lng,
  timeZone,
  utcOffset,
  zipPrefix,
  dial: '1',
  area,
});

const EASTERN = 'America/New_York';
const PACIFIC = 'America/Los_Angeles';
const CENTRAL = 'America/Chicago';
const MOUNTAIN = 'America/Denver';

export const CITIES: readonly City[] = [
  us('Cambridge', 'Massachusetts', 'MA', 42.3688272, -71.0712543, EASTERN, -5, '021', '617'),
  us('San Francisco', 'California', 'CA', 37.78976, -122.40071, PACIFIC, -8, '941', '415'),
  us('New York', 'New York', 'NY', 40.7411, -73.9897, EASTERN, -5, '100', '212'),
  us('Austin', 'Texas', 'TX', 30.2672, -97.7431, CENTRAL, -6, '787', '512'),
  us('Seattle', 'Washington', 'WA', 47.6062, -122.3321, PACIFIC, -8, '981', '206'),
  us('Chicago', 'Illinois', 'IL', 41.8781, -87.6298, CENTRAL, -6, '606', '312'),
  us('Boston', 'Massachusetts', 'MA', 42.3555, -71.0565, EASTERN, -5, '022', '617'),
  us('Denver', 'Colorado', 'CO', 39.7392, -104.9903, MOUNTAIN, -7, '802', '303'),
  us('Atlanta', 'Georgia', 'GA', 33.749, -84.388, EASTERN, -5, '303', '404'),
  us('Portland', 'Oregon', 'OR', 45.5152, -122.6784, PACIFIC, -8, '972', '503'),
  us('Salt Lake City', 'Utah', 'UT', 40.7608, -111.891, MOUNTAIN, -7, '841', '801'),
  us('Raleigh', 'North Carolina', 'NC', 35.7796, -78.6382, EASTERN, -5, '276', '919'),
  us('Cupertino', 'California', 'CA', 37.3349, -122.009, PACIFIC, -8, '950', '408'),
  us('Beaverton', 'Oregon', 'OR', 45.5088, -122.8291, PACIFIC, -8, '970', '503'),
  us('Redmond', 'Washington', 'WA', 47.6397, -122.1284, PACIFIC, -8, '980', '425'),
  us('Mountain View', 'California', 'CA', 37.422, -122.0841, PACIFIC, -8, '940', '650'),
  us('Menlo Park', 'California', 'CA', 37.4848, -122.1484, PACIFIC, -8, '940', '650'),
  us('Santa Clara', 'California', 'CA', 37.3706, -121.9669, PACIFIC, -8, '950', '408'),
  us('Armonk', 'New York', 'NY', 41.1265, -73.7141, EASTERN, -5, '105', '914'),
  us('Omaha', 'Nebraska', 'NE', 41.2565, -95.9345, CENTRAL, -6, '681', '402'),
  {
    ...us('London', 'England', 'ENG', 51.5145, -0.0877, 'Europe/London', 0, 'EC2', '20'),
    country: 'United Kingdom',
    countryCode: 'GB',
    dial: '44',
  },
  {
    ...us('Munich', 'Bavaria', 'BY', 48.1374, 11.5755, 'Europe/Berlin', 1, '803', '89'),
    country: 'Germany',
    countryCode: 'DE',
    dial: '49',
  },
  {
    ...us('Paris', 'Île-de-France', 'IDF', 48.8708, 2.3318, 'Europe/Paris', 1, '750', '1'),
    country: 'France',
    countryCode: 'FR',
    dial: '33',
  },
  {
    ...us('Tokyo', 'Tokyo', '13', 35.6812, 139.7671, 'Asia/Tokyo', 9, '100', '3'),
    country: 'Japan',
    countryCode: 'JP',
    dial: '81',
  },
  {
    ...us('Hong Kong', 'Hong Kong', 'HK', 22.2819, 114.1582, 'Asia/Hong_Kong', 8, '', ''),
    country: 'Hong Kong',
    countryCode: 'HK',
    dial: '852',
  },
  {
    ...us('Toronto', 'Ontario', 'ON', 43.6487, -79.3817, 'America/Toronto', -5, 'M5J', '416'),
    country: 'Canada',
    countryCode: 'CA',
    dial: '1',
  },
  {
    ...us('Sydney', 'New South Wales', 'NSW', -33.8651, 151.2099, 'Australia/Sydney', 10, '200', '2'),
    country: 'Australia',
    countryCode: 'AU',
    dial: '61',
  },
];

/** The city of that name, if the samples know it. */
export function cityNamed(name: string): City | undefined {
  return CITIES.find((city) => city.city === name);
}

/** The cities of one country. */
export function citiesIn(countryCode: string): City[] {
  return CITIES.filter((city) => city.countryCode === countryCode);
}

export const STREETS = [
  'Market Street',
  'Main Street',
  'Harbor Way',
  'Congress Avenue',
  'Canal Park',
  'Pine Street',
  'Innovation Drive',
  'Park Avenue',
  'Mill Road',
  'Station Square',
];

export const FIRST_NAMES = [
  'Maria',
  'Dev',
  'Ava',
  'Jonas',
  'Priya',
  'Sam',
  'Lena',
  'Omar',
  'Grace',
  'Kenji',
  'Sofia',
  'Malik',
  'Elena',
  'Tom',
  'Aisha',
  'Lucas',
  'Nora',
  'Ravi',
  'Chloe',
  'Mateo',
];
export const LAST_NAMES = [
  'Lopez',
  'Patel',
  'Lindqvist',
  'Ek',
  'Natarajan',
  'Rivera',
  'Okafor',
  'Holm',
  'Tanaka',
  'Novak',
  'Haddad',
  'Chen',
  'Moreau',
  'Schmidt',
  'Silva',
  'Walsh',
  'Kowalski',
  'Mensah',
  'Ortiz',
  'Becker',
];
