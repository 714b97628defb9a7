// The schema sidebar: databases -> tables -> columns, read with ordinary statements
// (information_schema's schemata, tables and columns) over the same protocol as the editor's.
// The session's current database is marked and opened; double-clicking a name puts it in the
// editor; what was read also feeds the editor's completion (`onLoaded`).

const LIMIT = 100000;

async function rowsOf(connection, sql) {
  const rows = [];
  const statement = connection.statement(sql, {
    maxRows: LIMIT,
    waitSecs: 5,
    onAnswer: (_, __, data) => { for (const row of data) rows.push(row); },
  });
  await statement.run();
  if (statement.error) throw new Error(`${statement.error.code}: ${statement.error.message}`);
  return rows;
}

export class SchemaTree {
  constructor(container, { onInsert, onLoaded }) {
    this.container = container;
    this.onInsert = onInsert;
    this.onLoaded = onLoaded;
    this.open = new Set(); // keys of the folders the user opened
    this.current = 'default';
    this.generation = 0; // only the latest of overlapping refreshes draws
  }

  /** Read the catalog again and redraw (`current`: the session's database). */
  async refresh(connection, current) {
    this.current = current || 'default';
    const generation = ++this.generation;
    this.container.setAttribute('aria-busy', 'true');
    try {
      const [databases, tables, columns] = await Promise.all([
        rowsOf(connection, 'SELECT schema_name FROM information_schema.schemata '
          + 'ORDER BY schema_name'),
        rowsOf(connection, 'SELECT table_schema, table_name FROM information_schema.tables '
          + 'ORDER BY table_schema, table_name'),
        rowsOf(connection, 'SELECT table_schema, table_name, column_name, data_type '
          + 'FROM information_schema.columns'),
      ]);
      if (generation !== this.generation) return;
      const names = databases.map((row) => row[0]);
      this.#draw(names, tables, columns);
      this.onLoaded({ databases: names, tables, columns, database: this.current });
    } catch (error) {
      if (generation !== this.generation) return;
      const message = document.createElement('p');
      message.className = 'schema-error';
      message.textContent = `Could not read the schema: ${error.message}`;
      this.container.replaceChildren(message);
    } finally {
      if (generation === this.generation) {
        this.container.removeAttribute('aria-busy');
        this.container.dataset.current = this.current;
      }
    }
  }

  /** The session's database changed (USE): mark it without reading the catalog again. */
  setCurrent(database) {
    this.current = database || 'default';
    this.container.dataset.current = this.current;
    for (const folder of this.container.querySelectorAll('details.database')) {
      const isCurrent = folder.dataset.name === this.current;
      folder.classList.toggle('current', isCurrent);
      if (isCurrent) folder.open = true;
    }
  }

  #draw(databases, tables, columns) {
    const columnsOf = new Map();
    for (const [database, table, name, type] of columns) {
      const key = `${database}.${table}`;
      if (!columnsOf.has(key)) columnsOf.set(key, []);
      columnsOf.get(key).push([name, type]);
    }
    const tablesOf = new Map(databases.map((name) => [name, []]));
    for (const [database, name] of tables) {
      if (!tablesOf.has(database)) tablesOf.set(database, []);
      tablesOf.get(database).push(name);
    }
    const folders = [];
    for (const [database, names] of tablesOf) {
      const folder = this.#folder('database', database, database,
        database === this.current || this.open.has(database));
      folder.classList.toggle('current', database === this.current);
      for (const table of names) {
        const key = `${database}.${table}`;
        const tableFolder = this.#folder('table', key, table, this.open.has(key));
        const list = document.createElement('ul');
        list.className = 'columns';
        for (const [name, type] of columnsOf.get(key) || []) {
          const item = document.createElement('li');
          item.className = 'column';
          item.dataset.name = name;
          const label = this.#insertButton(name, name);
          const typeLabel = document.createElement('span');
          typeLabel.className = 'column-type';
          typeLabel.textContent = type;
          item.append(label, typeLabel);
          list.append(item);
        }
        tableFolder.append(list);
        folder.append(tableFolder);
      }
      if (!names.length) {
        const empty = document.createElement('p');
        empty.className = 'empty';
        empty.textContent = 'no tables';
        folder.append(empty);
      }
      folders.push(folder);
    }
    this.container.replaceChildren(...folders);
  }

  #folder(kind, key, name, open) {
    const folder = document.createElement('details');
    folder.className = kind;
    folder.dataset.name = kind === 'database' ? name : key;
    folder.open = open;
    folder.addEventListener('toggle', () => {
      if (folder.open) this.open.add(key); else this.open.delete(key);
    });
    const summary = document.createElement('summary');
    summary.append(this.#insertButton(name, kind === 'table' ? key : name));
    folder.append(summary);
    return folder;
  }

  #insertButton(label, text) {
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = label;
    name.title = `Double-click to insert ${text}`;
    name.addEventListener('dblclick', (event) => {
      event.preventDefault();
      this.onInsert(text);
    });
    return name;
  }
}
