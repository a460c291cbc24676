// Seeds the Actual Budget sync-server through the app's own Node API (@actual-app/api).
// Usage: node seed.mjs <serverURL> <password> <scratch dir>
// Creates the budget "Household Budget" with accounts, category groups, payees,
// 40 transactions (this month and the two before) and budgeted amounts, then
// uploads it to the server (runImport uploads when it finishes).
import api from '@actual-app/api';

const [serverURL, password, dataDir] = process.argv.slice(2);

const today = new Date();
const ym = (back) => {
  const d = new Date(today.getFullYear(), today.getMonth() - back, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};
// day of month, capped at today's day for the current month so nothing is in the future
const day = (back, dd) => {
  const d = back === 0 ? Math.min(dd, today.getDate()) : dd;
  return `${ym(back)}-${String(d).padStart(2, '0')}`;
};
const cents = (x) => Math.round(x * 100);

await api.init({ dataDir, serverURL, password });

await api.runImport('Household Budget', async () => {
  // Accounts (initial balance creates a "Starting Balance" transaction)
  const checking = await api.createAccount({ name: 'Checking', offbudget: false }, cents(2450));
  const savings = await api.createAccount({ name: 'Savings', offbudget: false }, cents(8000));
  const visa = await api.createAccount({ name: 'Visa Card', offbudget: false }, cents(-320.5));
  const wallet = await api.createAccount({ name: 'Cash Wallet', offbudget: false }, cents(60));
  await api.createAccount({ name: 'Brokerage', offbudget: true }, cents(15250));

  // Category groups and categories
  const groups = {
    Bills: ['Rent', 'Electricity', 'Internet', 'Phone'],
    'Everyday Spending': ['Groceries', 'Restaurants', 'Transport', 'Entertainment'],
    'Savings Goals': ['Vacation', 'Emergency Fund'],
  };
  const cat = {};
  for (const [g, names] of Object.entries(groups)) {
    const gid = await api.createCategoryGroup({ name: g });
    // each new category is put at the top of its group: create them last to first
    for (const n of [...names].reverse()) cat[n] = await api.createCategory({ name: n, group_id: gid });
  }
  const income = (await api.getCategories()).find((c) => c.name === 'Income');
  cat.Income = income.id;

  // Payees
  const payeeNames = [
    'Acme Corp', 'Greenfield Apartments', 'City Power & Light', 'Comcast', 'Verizon',
    'Whole Foods', "Trader Joe's", 'Target', 'Starbucks', 'Chipotle', 'Olive Garden',
    'Shell Gas Station', 'Metro Transit', 'Netflix', 'AMC Theatres',
  ];
  const pay = {};
  for (const n of payeeNames) pay[n] = await api.createPayee({ name: n });

  const tx = (back, d, amount, payee, category, notes) => ({
    date: day(back, d), amount: cents(amount), payee: pay[payee], category: cat[category],
    notes: notes || undefined, cleared: back > 0,
  });

  const checkingTx = [];
  for (const back of [2, 1, 0]) {
    checkingTx.push(
      tx(back, 1, 3200, 'Acme Corp', 'Income', 'Monthly salary'),
      tx(back, 1, -1450, 'Greenfield Apartments', 'Rent', 'Apartment rent'),
      tx(back, 3, -89.99, 'Comcast', 'Internet'),
      tx(back, 4, -55, 'Verizon', 'Phone'),
      tx(back, 6, -112.4, 'City Power & Light', 'Electricity'),
    );
  }
  checkingTx.push(
    tx(2, 8, -134.27, 'Whole Foods', 'Groceries', 'Weekly groceries'),
    tx(2, 15, -76.1, "Trader Joe's", 'Groceries'),
    tx(2, 20, -48.5, 'Shell Gas Station', 'Transport'),
    tx(1, 9, -121.85, 'Whole Foods', 'Groceries', 'Weekly groceries'),
    tx(1, 16, -64.3, "Trader Joe's", 'Groceries'),
    tx(1, 18, -52.75, 'Shell Gas Station', 'Transport'),
    tx(1, 22, -95.6, 'Target', 'Groceries', 'Household supplies'),
    tx(0, 2, -142.18, 'Whole Foods', 'Groceries', 'Weekly groceries'),
    tx(0, 2, -45.0, 'Metro Transit', 'Transport', 'Monthly pass'),
  );
  await api.addTransactions(checking, checkingTx);

  await api.addTransactions(visa, [
    tx(2, 5, -15.49, 'Netflix', 'Entertainment'),
    tx(2, 12, -38.2, 'Chipotle', 'Restaurants'),
    tx(2, 25, -64.9, 'Olive Garden', 'Restaurants', 'Birthday dinner'),
    tx(1, 5, -15.49, 'Netflix', 'Entertainment'),
    tx(1, 11, -29.0, 'AMC Theatres', 'Entertainment'),
    tx(1, 19, -41.35, 'Chipotle', 'Restaurants'),
    tx(0, 1, -15.49, 'Netflix', 'Entertainment'),
    tx(0, 2, -22.4, 'Chipotle', 'Restaurants'),
  ]);

  await api.addTransactions(wallet, [
    tx(1, 7, -6.75, 'Starbucks', 'Restaurants', 'Latte'),
    tx(1, 14, -5.25, 'Starbucks', 'Restaurants'),
    tx(0, 1, -7.1, 'Starbucks', 'Restaurants', 'Coffee with Sam'),
  ]);

  await api.addTransactions(savings, [
    tx(1, 26, 500, null, null, 'Monthly savings transfer'),
    tx(1, 27, 4.12, null, 'Income', 'Interest'),
  ]);

  // Budgeted amounts: the two previous months and this month
  const budget = {
    Rent: 1450, Electricity: 120, Internet: 90, Phone: 55,
    Groceries: 400, Restaurants: 150, Transport: 100, Entertainment: 60,
    Vacation: 200, 'Emergency Fund': 250,
  };
  for (const back of [2, 1, 0]) {
    for (const [n, amt] of Object.entries(budget)) {
      await api.setBudgetAmount(ym(back), cat[n], cents(amt));
    }
  }
});

const budgets = await api.getBudgets();
const mine = budgets.find((b) => b.name === 'Household Budget' && b.cloudFileId);
await api.shutdown();
if (!mine) {
  console.error('seed: the budget was not uploaded to the server');
  process.exit(1);
}
console.log(`seed: uploaded "Household Budget" (file ${mine.cloudFileId})`);
