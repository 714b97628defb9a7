// Runs SQL through the Node databend-driver (npm) for tests/e2e/test_client_node.py.
// argv: DSN, then a JSON list of steps [{"exec": sql} | {"row": sql}]; prints a JSON list with
// one entry per step: the rows affected, or the row's values (Dates as ISO-8601 UTC text).
const { Client } = require("databend-driver");

async function main() {
  const client = new Client(process.argv[2]);
  const conn = await client.getConn();
  const out = [];
  for (const step of JSON.parse(process.argv[3])) {
    if (step.exec !== undefined) {
      out.push(await conn.exec(step.exec));
    } else {
      const row = await conn.queryRow(step.row);
      out.push(row.values().map((v) => (v instanceof Date ? v.toISOString() : v)));
    }
  }
  await conn.close();
  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(String(e));
  process.exit(1);
});
