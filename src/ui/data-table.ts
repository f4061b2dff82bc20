// Mantine DataTable with its styles (unlayered, like @mantine/core's, so the table's rules win).
import 'mantine-datatable/styles.css';

export { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
