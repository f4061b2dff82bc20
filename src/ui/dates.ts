// Mantine date pickers with their styles (loaded with the pages that use them, not the login page).
import '@mantine/dates/styles.css';

export { DateTimePicker, MonthPickerInput } from '@mantine/dates';
