import 'react-toastify/ReactToastify.css';
import './toaster.css';
import { TOAST } from '@share-arts/contract';
import { ToastContainer } from 'react-toastify/unstyled';
import { useTheme } from '../lib/theme';

/** The app's one toast outlet: 2 s, top right, following the theme. */
export default function Toaster() {
  const { theme } = useTheme();
  return <ToastContainer position={TOAST.position} autoClose={TOAST.autoCloseMs} theme={theme} />;
}
